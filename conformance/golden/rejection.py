"""The bad-file cells of the matrix: every reader reads every file of the bad-file corpus.

The idea is JSONTestSuite's ``n_`` and ``i_`` files, toml-test's ``invalid/``
tree and Wycheproof's ``result``: a parser that accepts input the spec forbids
is wrong, however plausible the values it returns. The files are the corpus of
``conformance.golden.bad_corpus`` (one fault each, its documented error class,
its spec sections, its verdict); this module plans one ``reject`` cell per
(file, reader) and runs it, judging by the file's verdict. `conformance run` writes
the files into its run directory; `conformance golden verify` reads the corpus's
``bad/`` copies, once it has checked that ``bad/index.json`` documents them as the
catalogue does (``conformance.golden.verify``).

Outcomes of a reject cell for a ``bad`` file (the matrix's vocabulary, read for
"must reject"):

* ``pass``: the engine raised, detail ``rejected: <Class>: <message>``. For the
  reference the class must also be the catalogue's ``error_class``;
* ``mismatch``: the reader returned data (detail ``accepted a file that must be
  rejected (<fault>): returned N rows`` and a preview, or ``returned values its
  adapter cannot convert exactly`` for a ``LossyConversion``), or the reference
  raised another class than the documented one (detail names both);

For an ``acceptable`` file (one rule broken, exactly one reading: its original's
rows):

* ``pass``: the reader returned exactly the original's rows (``conformance.values.
  diff_tables``; detail ``read its single reading: ...``) or raised its own error
  (detail ``rejected cleanly: <Class>: <message>``). The reference must read it,
  leniently (``reference_impl.common.leniency.reading``), naming the rule it breaks, and
  raise ``error_class`` when reading strictly;
* ``mismatch``: the reader returned other rows (detail ``returned other rows than
  its single reading (<fault>):`` and the diff), or the reference rejected it or
  read it without naming a rule (detail ``not read leniently: ...``);

For both:

* ``unsupported``: the adapter raised ``Unsupported``, with its reason;
* ``harness-error``: the adapter's own code failed converting what the engine
  returned (``conformance.matrix.failures``): a bug of this suite, not a rejection;
* ``crash`` / ``timeout``: from the isolation around every cell, as elsewhere;
* ``error``: the bad file is not where the plan put it (the harness, not the reader).

How each reader reads (``mode`` of the request):

* ``catalogue`` (the reference): the reader of the entry's format, through its
  reference adapter's ``records`` (``conformance.engines.reference``), with the entry's
  exact ``ReadOptions`` (checksum verification, explicit keys, or none); the class
  raised is looked up in the format's ``errors`` module (``conformance.formats``); an
  acceptable file also through the adapter, inside ``reading()``, for its rows;
* ``engine`` (every other reader): the adapter's ``read(path)``; where the entry
  asks for checksum verification, ``read_verifying_checksums`` when the adapter
  has one, else the engine's defaults, and the detail says which. A peer cannot
  be handed explicit keys through ``read(path)``; the encrypted bad files use the
  footer key the adapters offer for a file whose metadata names none
  (``case_keys``), so a peer that decrypts meets the fault, and the detail says
  a rejection may still be for the key.

Entries whose fault is in the reading, not the bytes (a wrong or missing key:
``BadFile.valid_read_options`` is set, the bytes are a valid file), are cells of
the reference only: a peer's ``read(path)`` cannot be given the wrong key or be
denied the right one, so its cell would measure the adapter's key convention,
not the engine. So are entries whose fault lies under an ORC encryption variant
(``BadFile.for_key_holders``): a peer without the key reads the masked view, as the
text asks of it; such an entry is a cell of every reader that holds the suite's ORC keys
(``EngineInfo.holds_orc_keys``: it claims to read ``encryption:column`` and not only
keyless, so it holds the keys: the ORC Java adapter is handed them, Spark's session has the
test key provider).

Bad files are not gated by declared capabilities: a reader must reject a file
the spec forbids whatever features it claims.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from conformance.cases import select
from conformance.engines import Engine, get_engine
from conformance.formats import file_format
from conformance.matrix.cells import EngineInfo, sha256_of
from conformance.matrix.failures import (
    ENGINE,
    HARNESS_ERROR,
    LOSSY,
    describe_exception,
    failure_kind,
    failure_outcome,
)
from conformance.values import Table, diff_tables
from reference_impl.common.leniency import reading

from .bad_corpus import bad_files, expected_reading, reference_adapter, reference_reading, write_bad_files
from .bad_file import ACCEPTABLE, BadFile, file_name

__all__ = ["BAD_FILES_DIR", "CASE_PREFIX", "PASSING", "REFERENCE", "VERDICTS", "WRITER", "fault_of",
           "file_verdict_of", "plan_reject_cells", "plan_rejects", "reject_cell", "selected_bad_files",
           "verdict"]

PHASE = "reject"
WRITER = "bad-files"  # the "writer" of a reject cell: the catalogue
REFERENCE = "reference"
CASE_PREFIX = "bad/"
BAD_FILES_DIR = Path("files") / "bad"  # relative to the run dir
CATALOGUE_MODE = "catalogue"
ENGINE_MODE = "engine"
PREVIEW_ROWS = 3
REJECTED = "rejected"
ACCEPTED = "accepted"
WRONG_CLASS = "wrong class"
# An acceptable file's outcomes (its verdict, ``BadFile.verdict``).
SINGLE_READING = "read its single reading"
REJECTED_CLEANLY = "rejected cleanly"
OTHER_ROWS = "returned other rows"
NOT_LENIENT = "not read leniently"  # the reference only
# What a reject cell's outcome and detail say about the reader, most alarming first.
VERDICTS = (HARNESS_ERROR, ACCEPTED, OTHER_ROWS, WRONG_CLASS, NOT_LENIENT, "crash", "timeout",
            "error", "unsupported", REJECTED, SINGLE_READING, REJECTED_CLEANLY)
PASSING = (REJECTED, SINGLE_READING, REJECTED_CLEANLY)
NO_KEYS_NOTE = ("the engine was not handed this file's keys (read(path) takes none); its "
                "adapter offers the suite's key for files whose metadata names none, which is this "
                "file's footer key: a rejection may still be for the key, not the fault")
NO_CHECKSUM_NOTE = ("read with the engine's defaults: its adapter has no page checksum "
                    "verification (the crc is optional, '3.7.4 - Checksumming')")


@dataclass(frozen=True)
class _Selectable:
    """A bad file as `conformance.cases.select` sees a case: an id and feature tags."""

    id: str
    features: tuple[str, ...]
    entry: BadFile


def case_id(entry: BadFile) -> str:
    return CASE_PREFIX + entry.id


def features(entry: BadFile) -> list[str]:
    """``bad:<error class>``, ``fault:<area>`` (the id's first part: framing, page, ...) and
    ``verdict:<bad|acceptable>``."""
    area = entry.id.partition("/")[0]
    return [f"bad:{entry.error_class}", f"fault:{area}", f"verdict:{entry.verdict}"]


def selected_bad_files(case_globs: Sequence[str] = (), feature_patterns: Sequence[str] = ()
                       ) -> list[BadFile]:
    """The entries a run's ``--cases``/``--features`` select, matched like cases against
    ``bad/<id>`` and ``features``: all of them without a filter, none for a filter
    that names only catalogue cases."""
    subjects = [_Selectable(case_id(e), tuple(features(e)), e) for e in bad_files()]
    return [s.entry for s in select(subjects, case_globs, feature_patterns)]


def plan_rejects(run_id: str, run_dir: Path, readers: Sequence[EngineInfo],
                 entries: Sequence[BadFile] | None = None) -> list[dict]:
    """Write the bad files into ``<run_dir>/files/bad`` and plan one reject cell per
    (entry, reader) for ``entries`` (default: the whole catalogue)."""
    write_bad_files(run_dir / BAD_FILES_DIR)
    return plan_reject_cells(run_id, run_dir, BAD_FILES_DIR, readers,
                             bad_files() if entries is None else entries)


def plan_reject_cells(run_id: str, workdir: Path, folder: Path, readers: Sequence[EngineInfo],
                      entries: Sequence[BadFile]) -> list[dict]:
    """One reject cell per (entry, reader) of the bad files already in ``folder`` (relative to
    ``workdir``, the cells' work directory, or absolute: a golden corpus's ``bad/``)."""
    version = importlib.metadata.version("columnar-conformance")
    requests = []
    for entry in entries:
        file = (folder / file_name(entry)).as_posix()
        sha256 = sha256_of(workdir / file)
        for reader in readers:
            if reader.format != entry.format:
                continue
            if reader.name != REFERENCE and not _peer_meets(entry, reader):
                continue  # a fault in the reading, or under a key it lacks: see the module docstring
            requests.append(_request(run_id, entry, reader, file, sha256, version))
    return requests


def _peer_meets(entry: BadFile, reader: EngineInfo) -> bool:
    """Does a peer's ``read(path)`` meet the entry's fault? Not one in the reading; one under
    an ORC encryption variant only when the peer holds the keys (its adapter is handed the
    suite's ORC keys, conformance.engines.protocol.keys)."""
    if entry.valid_read_options is not None:
        return False
    return not entry.for_key_holders or reader.holds_orc_keys


def _request(run_id: str, entry: BadFile, reader: EngineInfo, file: str, sha256: str,
             version: str) -> dict:
    mode = CATALOGUE_MODE if reader.name == REFERENCE else ENGINE_MODE
    return {"run_id": run_id, "phase": PHASE, "mode": mode, "case_id": case_id(entry),
            "bad_file": entry.id,
            "subject": {"format": entry.format, "features": features(entry), "spec": list(entry.spec)},
            "engine": reader.spec, "cell_id": f"{PHASE}/{reader.name}/{entry.id}",
            "file": file, "file_sha256": sha256, "writer": WRITER, "writer_version": version,
            "reader": reader.name, "reader_version": reader.version}


@cache
def _catalogue() -> dict[str, BadFile]:
    return {entry.id: entry for entry in bad_files()}


def fault_of(cell_case_id: str) -> str | None:
    """The catalogue's fault of a reject cell's ``bad/<id>``; None for an id it no longer has."""
    entry = _catalogue().get(cell_case_id.removeprefix(CASE_PREFIX))
    return None if entry is None else entry.fault


def file_verdict_of(cell_case_id: str) -> str | None:
    """The catalogue's verdict (bad / acceptable) of a reject cell's ``bad/<id>``; None for an
    id it no longer has."""
    entry = _catalogue().get(cell_case_id.removeprefix(CASE_PREFIX))
    return None if entry is None else entry.verdict


@cache
def _expected(entry_id: str) -> Table:
    return expected_reading(_catalogue()[entry_id])


def reject_cell(request: dict, workdir: Path) -> tuple[str, str, dict]:
    """(outcome, detail, extra) of one reject cell; see the module docstring."""
    entry = _catalogue()[request["bad_file"]]
    path = workdir / request["file"]
    if not path.is_file():
        return "error", f"no bad file at {path}: the plan wrote none there", {}
    acceptable = entry.verdict == ACCEPTABLE
    if request["mode"] == CATALOGUE_MODE:
        return (*(_catalogue_single_reading if acceptable else _catalogue_read)(entry, path), {})
    return (*_engine_read(get_engine(request["engine"], entry.format), entry, path), {})


def _catalogue_read(entry: BadFile, path: Path) -> tuple[str, str]:
    try:
        records = _reference_records(entry, path)
    except Exception as exc:  # noqa: BLE001 - rejecting is the expected answer
        # The format's closed vocabulary of the reference's errors (a BadFile's error_class).
        if type(exc) is file_format(entry.format).error_class(entry.error_class):
            return "pass", f"{REJECTED}: {describe_exception(exc)}"
        return "mismatch", (f"{REJECTED} with {type(exc).__name__}, but the catalogue documents "
                            f"{entry.error_class}: {describe_exception(exc)}")
    return "mismatch", _accepted(entry, _returned(len(records), repr(records[:PREVIEW_ROWS])))


def _reference_records(entry: BadFile, path: Path) -> Sequence[object]:
    """The rows the reference reader reads from ``path``, with the entry's read options."""
    return reference_adapter(entry).records(path)


def _catalogue_single_reading(entry: BadFile, path: Path) -> tuple[str, str]:
    """An acceptable file: rejected with ``error_class`` strictly, read leniently with the
    original's rows and at least one rule named."""
    with reading(strict=True):
        strict = _catalogue_read(entry, path)
    if strict[0] != "pass":
        return strict
    try:
        table, breaches = reference_reading(entry, path)
    except Exception as exc:  # noqa: BLE001 - the verdict names it
        return "mismatch", f"{NOT_LENIENT}: rejected a file with a single reading: {describe_exception(exc)}"
    if not breaches:
        return "mismatch", f"{NOT_LENIENT}: read it without naming the rule it breaks ({entry.fault})"
    named = "; ".join(found.describe() for found in breaches)
    return _single_reading_verdict(entry, table, f"names {named}")


def _engine_read(engine: Engine, entry: BadFile, path: Path) -> tuple[str, str]:
    verifying = entry.read_options.verify_checksums and engine.checksum_verification is not None
    notes = _read_notes(engine, entry, verifying)
    try:
        table = engine.read_verifying_checksums(path) if verifying else engine.read(path)
    except Exception as exc:  # noqa: BLE001 - rejecting is the expected answer
        return _with_notes(_failure_verdict(entry, exc), notes)
    if entry.verdict == ACCEPTABLE:
        return _with_notes(_single_reading_verdict(entry, table), notes)
    return _with_notes(("mismatch", _accepted(entry, _returned(len(table.rows), _preview(table)))),
                       notes)


def _single_reading_verdict(entry: BadFile, table: Table, how: str = "") -> tuple[str, str]:
    """An acceptable file read: pass with exactly its original's rows, else the diff."""
    difference = diff_tables(_expected(entry.id), table)
    if difference is not None:
        return "mismatch", _other_rows(entry, difference)
    said = f"; {how}" if how else ""
    return "pass", f"{SINGLE_READING}: {len(table.rows)} rows, its original's{said}"


def _failure_verdict(entry: BadFile, exc: Exception) -> tuple[str, str]:
    """Only the engine's own error is a rejection (``conformance.matrix.failures``)."""
    kind = failure_kind(exc)
    acceptable = entry.verdict == ACCEPTABLE
    if kind == ENGINE:
        return "pass", f"{REJECTED_CLEANLY if acceptable else REJECTED}: {describe_exception(exc)}"
    if kind == LOSSY:
        what = f"returned values its adapter cannot convert exactly: {describe_exception(exc)}"
        return "mismatch", _other_rows(entry, what) if acceptable else _accepted(entry, what)
    return failure_outcome(exc)


def _read_notes(engine: Engine, entry: BadFile, verifying: bool) -> list[str]:
    """How the engine read, where it differs from the catalogue's read options."""
    options = entry.read_options
    notes = []
    if verifying:
        notes.append(f"read with page checksum verification: {engine.checksum_verification}")
    elif options.verify_checksums:
        notes.append(NO_CHECKSUM_NOTE)
    if options.footer_key is not None or options.column_keys:
        notes.append(NO_KEYS_NOTE)
    return notes


def _with_notes(result: tuple[str, str], notes: list[str]) -> tuple[str, str]:
    outcome, detail = result
    return outcome, "\n".join([detail, *(f"note: {note}" for note in notes)])


def _accepted(entry: BadFile, what: str) -> str:
    return f"{ACCEPTED} a file that must be rejected ({entry.fault}): {what}"


def _other_rows(entry: BadFile, what: str) -> str:
    return f"{OTHER_ROWS} than its single reading ({entry.fault}):\n{what}"


def _returned(rows: int, preview: str) -> str:
    return f"returned {rows} rows\nfirst rows: {preview}"


def _preview(table: Table) -> str:
    return str(Table(table.schema, table.rows[:PREVIEW_ROWS]).to_document()["rows"])


def verdict(outcome: str, detail: str) -> str:
    """What a reject cell says about its reader, one of ``VERDICTS`` (its detail's start
    tells them apart; a ``mismatch`` without one of them is the reference's wrong class)."""
    if outcome == "pass":
        return next((v for v in (SINGLE_READING, REJECTED_CLEANLY) if detail.startswith(v)), REJECTED)
    if outcome == "mismatch":
        return next((v for v in (ACCEPTED, OTHER_ROWS, NOT_LENIENT) if detail.startswith(v)), WRONG_CLASS)
    return outcome
