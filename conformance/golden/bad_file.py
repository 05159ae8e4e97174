"""The entry model of the bad-file corpus, for every format.

Modelled on toml-test's ``invalid/`` tree and test262's ``negative: {type}``: every
entry names its one fault, the expected error *class* from the closed vocabulary of its
format's ``errors.py`` (``reference_impl/parquet/errors.py``, ``reference_impl/orc/errors.py``;
never a message text), the spec sections it violates and its verdict (Wycheproof's
``result``: ``bad``, a reader must reject it, or ``acceptable``, see :class:`BadFile`).
Each format's entries are in its folder (``golden/parquet/``, ``golden/orc/``); the
whole corpus is ``bad_corpus.bad_files``, its index ``INDEX``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from conformance.engines.reference import ReadOptions
from conformance.formats import DEFAULT_FORMAT, file_format
from conformance.values import Table

__all__ = ["ACCEPTABLE", "BAD", "INDEX", "BadFile", "Verdict", "file_name"]

INDEX = "index.json"
Verdict = Literal["bad", "acceptable"]
BAD: Verdict = "bad"
ACCEPTABLE: Verdict = "acceptable"


@dataclass(frozen=True)
class BadFile:
    """One file that breaks one rule; under strict reading it is rejected with ``error_class``.

    ``original`` makes the valid file ``make`` was mutated from. When the fault
    is in the reading (a wrong or missing key), the bytes are the original's and
    ``valid_read_options`` are the options under which that file reads. When the
    fault lies under encryption (``for_key_holders``: a local key sealed under
    another key, altered ciphertext), only a reader holding the key meets it; a
    reader without one reads the masked view, as ORCv1.md 'Encryption Variants'
    has it do, so the file is bad for key holders only.

    ``verdict``, like Wycheproof's ``result``, says what a reader may do with it:

    * ``bad``: the file has no single reading; every reader must reject it;
    * ``acceptable``: the file breaks a rule but has exactly one reading, the rows
      of its ``original``; a reader passes by reading exactly those rows or by
      rejecting it cleanly, and fails by returning other rows or crashing. The
      reference reads it leniently (``reference_impl.common.leniency.reading``), naming
      the rule it breaks, and raises ``error_class`` when reading strictly.
    """

    id: str
    fault: str
    error_class: str
    spec: tuple[str, ...]
    make: Callable[[], bytes]
    original: Callable[[], bytes]
    read_options: ReadOptions = ReadOptions()
    valid_read_options: ReadOptions | None = None
    verdict: Verdict = BAD
    format: str = DEFAULT_FORMAT  # a name of conformance.formats.FORMATS
    for_key_holders: bool = False

    @property
    def reference_only(self) -> bool:
        """Is this a cell of the reference alone, among readers without keys? A fault in the
        reading (a peer's ``read(path)`` cannot be handed the wrong key), or one only a key
        holder meets (conformance.golden.rejection: a reader handed the suite's ORC keys
        meets it too)."""
        return self.valid_read_options is not None or self.for_key_holders

    def to_json(self, raw: bytes, expected: Table | None = None) -> dict[str, Any]:
        """The index.json entry; ``expected``: an acceptable file's single reading."""
        entry = {
            "id": self.id,
            "format": self.format,
            "verdict": self.verdict,
            "fault": self.fault,
            "error_class": self.error_class,
            "spec": list(self.spec),
            "read_options": self.read_options.to_json(),
            "sha256": hashlib.sha256(raw).hexdigest(),
        }
        if expected is not None:
            entry["expected"] = expected.to_document()
        return entry


def file_name(entry: BadFile) -> str:
    """``<id>.parquet`` or ``<id>.orc`` by the entry's format, relative to the corpus
    directory (an id's ``/`` is a folder)."""
    return entry.id + file_format(entry.format).suffix
