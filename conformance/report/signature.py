"""The cause signature of a failing cell: which engine failed, and how, with what varies
between two meetings of one bug blanked.

A cell's signature is (engine, version, outcome, kind):

* the engine is the one whose behaviour the cell judges: the reader of a read, golden or
  reject cell, the writer of a write cell, and the writer too of a ``validator`` read
  cell (the validator checks the metadata the writer put in its file) and of a read cell
  where the reference, the suite's oracle, read another writer's file (the kind then
  starts ``file read by the reference:``, so the writer's own groups say where they
  come from);
* for an error, crash, timeout, flaky or harness-error cell, the kind is the engine's
  message: its first lines up to the traceback or the adapter's stderr, with paths,
  temporary folders, quoted values, column names, numbers, offsets, hexadecimal
  identities and object addresses replaced by placeholders, so "cannot read
  '/tmp/a/x.parquet' at offset 52" and "cannot read '/tmp/b/y.parquet' at offset 7" are
  one cause;
* for a mismatch, the kind of value difference read from the detail
  (``conformance.values.compare.diff_tables`` and the filtered read of
  ``conformance.matrix.execute``): a type read as another, a null read as a value, the
  NaN payload or the sign of zero lost, a precision loss, a timezone shift, a wrong row
  count...; for a reject cell the verdict and the bad file's fault area
  (``conformance.golden.rejection``); for a validator cell the kinds of untrue
  metadata it found.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from conformance.golden.rejection import ACCEPTED, OTHER_ROWS, WRONG_CLASS

from .dataset import REFERENCE, REJECT, Cell, base_engine
from .rejections import cell_verdict

VALIDATOR = "validator"
READ_BY_REFERENCE = "file read by the reference: "  # a filtered read too: the predicate says
MAX_MESSAGE_LINES = 4  # an exception's message and its "caused by" chain
MAX_KIND_CHARS = 240
RELATIVE_ROUNDING = Fraction(1, 10**6)  # a smaller relative change is a rounding
SECONDS_PER_HOUR = 3600
HOURS_PER_DAY = 24
UNIT_DIGITS = (0, 3, 6, 9)  # seconds, ms, us, ns: a shift of whole hours in any unit

# Where an engine's message ends: a traceback frame, captured stderr, a note.
_MESSAGE_END = re.compile(r"^(\s|adapter stderr|stderr tail|note: |first rows: )")
# Placeholders, in order: what contains digits or quotes goes before the numbers.
_BLANKS = (
    (re.compile(r"\b[a-z]+://\S+"), "<path>"),
    (re.compile(r"(?<![\w>])(?:[A-Za-z]:)?(?:/[^\s/:;,'\"()]+)+/?"), "<path>"),
    (re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’"), "<value>"),
    (re.compile(r"\bcolumns? (?!(?:as|is|of|to|in|and|the|that|with)\b)[\w.]+(?:, [\w.]+)*"),
     "column <name>"),
    (re.compile(r"@[0-9a-fA-F]+\b"), "@<hex>"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b|\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b"),
     "<hex>"),
    (re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"), "<n>"),
)
_ERROR_CLASS = re.compile(r"^([A-Za-z_][\w.$]*(?:Error|Exception|Conversion|Failed|Panic\w*)?):\s")

_TYPE_LINE = re.compile(r"^column (.+?) type: expected (.+), got (.+?)(?: \(isAdjustedToUTC differs\))?$")
_ROW_COUNT = re.compile(r"^row count: expected (\d+), got (\d+)$")
_VALUE_LINE = re.compile(r"^row \d+, column (.+?): expected (.*), got (.*)$")
_FILTER_LINE = re.compile(r"^filtered read WHERE \S+ (\S+) (.+?): (\d+) row\(s\), expected the (\d+)")
_TYPED_VALUE = re.compile(r"^(.*) \(([A-Z][^()]*(?:\([^()]*\))?[^()]*)\)$")
_TIMESTAMP = re.compile(r"^(TIMESTAMP|TIME)\((\w+), utc=(True|False)\)")
_TYPE_HEAD = re.compile(r"^[A-Z_0-9]+")
_NAN = re.compile(r"^nan(?::0x[0-9a-f]+)?$")


@dataclass(frozen=True, order=True)
class Signature:
    """What makes two failing cells one cause."""

    engine: str
    version: str
    outcome: str
    kind: str

    @property
    def engine_at_version(self) -> str:
        return f"{self.engine}@{self.version}" if self.version else self.engine

    @property
    def error_class(self) -> str:
        """The exception class the kind starts with ("" for a mismatch kind)."""
        found = _ERROR_CLASS.match(self.kind)
        return found.group(1) if found and self.outcome != "mismatch" else ""

    def __str__(self) -> str:
        return f"{self.engine_at_version} {self.outcome}: {self.kind}"

    def to_json(self) -> dict:
        return {"engine": self.engine, "version": self.version, "outcome": self.outcome,
                "kind": self.kind, "error_class": self.error_class}


def judges_the_writer(cell: Cell) -> bool:
    """A write cell, a validator cell, or the reference reading a peer's file."""
    return cell.reader in (None, VALIDATOR) or (
        cell.phase == "read" and _by_reference(cell) and cell.writer != REFERENCE)


def _by_reference(cell: Cell) -> bool:
    """The reference read the cell's file, fully or filtered (``reference:filter``)."""
    return base_engine(cell.reader or "") == REFERENCE


def judged_engine(cell: Cell) -> tuple[str, str]:
    """(engine, version) whose behaviour the cell judges (module docstring)."""
    if judges_the_writer(cell):
        return cell.writer, cell.writer_version
    return cell.reader or "", cell.reader_version or ""


def signature(cell: Cell) -> Signature:
    engine, version = judged_engine(cell)
    by_reference = _by_reference(cell) and judges_the_writer(cell)
    kind = f"{READ_BY_REFERENCE}{kind_of(cell)}" if by_reference else kind_of(cell)
    return Signature(engine, version, cell.outcome, _cut(kind))


def kind_of(cell: Cell) -> str:
    if cell.outcome != "mismatch":
        return normalise_message(cell.detail)
    if cell.phase == REJECT:
        return _reject_kind(cell)
    if cell.reader == VALIDATOR:
        return _validator_kind(cell)
    return difference_kind(cell.detail)


def normalise_message(detail: str) -> str:
    """An engine's message (module docstring): its lines up to the traceback, blanked."""
    lines: list[str] = []
    for line in detail.strip().splitlines():
        if lines and _MESSAGE_END.match(line):
            break
        lines.append(line.strip())
    text = " | ".join(lines[:MAX_MESSAGE_LINES])
    for pattern, blank in _BLANKS:
        text = pattern.sub(blank, text)
    return text or "(no message)"


def _cut(text: str) -> str:
    return text if len(text) <= MAX_KIND_CHARS else text[:MAX_KIND_CHARS - 3] + "..."


def _reject_kind(cell: Cell) -> str:
    """The verdict on a bad file, with the area of its fault (framing, page, type-rule...)."""
    found = cell_verdict(cell)
    area = cell.case_id.removeprefix("bad/").partition("/")[0]
    if found == ACCEPTED:
        return f"accepted a bad file it must reject ({area} fault)"
    if found == OTHER_ROWS:
        return f"returned other rows than an acceptable file's single reading ({area} fault)"
    if found == WRONG_CLASS:
        return f"rejected a bad file ({area} fault) with another class: {normalise_message(cell.detail)}"
    return f"{found}: {area}"


def _validator_kind(cell: Cell) -> str:
    kinds = sorted({f["kind"] for f in json.loads(cell.findings or "[]") if f["severity"] == "untrue"})
    return f"untrue metadata: {', '.join(kinds) or normalise_message(cell.detail)}"


# -- kinds of value difference -----------------------------------------------------------------

def difference_kind(detail: str) -> str:
    """The kinds of difference a mismatch detail shows, deduplicated, in a stable order."""
    lines = detail.strip().splitlines()
    if lines and (found := _FILTER_LINE.match(lines[0])):
        return _filter_kind(*found.groups())
    kinds = [k for k in map(_line_kind, lines) if k]
    return "; ".join(sorted(set(kinds))) or normalise_message(detail)


def _filter_kind(op: str, operand: str, got: str, want: str) -> str:
    count = "fewer" if int(got) < int(want) else "more" if int(got) > int(want) else "other"
    return f"filtered read (x {op} {_operand_class(operand)}): {count} rows than a full scan finds"


def _operand_class(operand: str) -> str:
    if operand in ("nan", "inf", "-inf"):
        return operand.upper() if operand == "nan" else operand
    if operand.startswith(("b'", 'b"')):
        return "<bytes>"
    if operand[:1] in "'\"":
        return "<string>"
    return "<number>"


def _line_kind(line: str) -> str | None:
    if found := _TYPE_LINE.match(line):
        return f"type: {_type_name(found.group(2))} read as {_type_name(found.group(3))}"
    if found := _ROW_COUNT.match(line):
        return "row count: " + ("fewer rows" if int(found.group(2)) < int(found.group(1)) else "more rows")
    if found := _VALUE_LINE.match(line):
        return _value_kind(found.group(2), found.group(3))
    if line.startswith("columns: "):
        return "column names differ"
    return None


def _type_name(described: str) -> str:
    """A type reduced to what tells causes apart: its head word, with a timestamp's UTC
    adjustment (``TIMESTAMP(us, utc=True)`` -> ``TIMESTAMP(UTC)``)."""
    if found := _TIMESTAMP.match(described):
        return f"{found.group(1)}({'UTC' if found.group(3) == 'True' else 'local'})"
    head = _TYPE_HEAD.match(described)
    return head.group() if head else described


def _value_kind(want_text: str, got_text: str) -> str:
    """One differing value: what became of it. Where the value came back as another type
    (INT96 as TIMESTAMP(us)), that type is the cause, whatever each value became."""
    (want, want_type), (got, got_type) = _typed(want_text), _typed(got_text)
    if want_type and got_type:
        return f"values changed: {want_type} read as {got_type}"
    return _leaf_kind(*_first_difference(want, got))


def _typed(text: str) -> tuple[object, str]:
    """A shown value and the type named after it when the types differ (``compare._show``)."""
    typed = _TYPED_VALUE.match(text)
    shown, type_name = (typed.group(1), typed.group(2)) if typed else (text, "")
    try:
        return json.loads(shown), type_name
    except ValueError:
        return shown, type_name


def _first_difference(want: object, got: object) -> tuple[object, object, str]:
    """The first pair of differing leaves inside two nested values, and where (list / struct)."""
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return want, got, "list"
        pairs: Iterable[tuple[object, object]] = zip(want, got, strict=True)
    elif isinstance(want, dict) and isinstance(got, dict) and want.keys() == got.keys():
        pairs = ((want[k], got[k]) for k in want)
    else:
        return want, got, ""
    for w, g in pairs:
        if w != g:
            leaf_want, leaf_got, _ = _first_difference(w, g)
            return leaf_want, leaf_got, "nested"
    return want, got, ""


def _leaf_kind(want: object, got: object, where: str) -> str:
    """One differing leaf; nested or not, a cause reads the same (a null list read as [])."""
    if where == "list" and isinstance(want, list) and isinstance(got, list):
        return f"list length: {'fewer' if len(want) > len(got) else 'more'} elements"
    if want is None or got is None:
        return _null_kind(want, got)
    if isinstance(want, bool) or isinstance(got, bool):
        return "boolean value differs"
    if isinstance(want, str) and isinstance(got, str) and (_float_like(want) or _float_like(got)):
        return _float_kind(want, got)
    w, g = _number(want), _number(got)
    if w is not None and g is not None:
        return _number_kind(w, g)
    return "value differs"


def _null_kind(want: object, got: object) -> str:
    if want is None:
        shape = "an empty list" if got == [] else "a list" if isinstance(got, list) \
            else "a struct" if isinstance(got, dict) else "a value"
        return f"null read as {shape}"
    shape = "empty list" if want == [] else "list" if isinstance(want, list) \
        else "struct" if isinstance(want, dict) else "value"
    return f"{shape} read as null"


def _float_like(text: str) -> bool:
    return bool(_NAN.match(text)) or text in ("inf", "-inf") or ("." in text and _number(text) is not None)


def _float_kind(want: str, got: str) -> str:
    if _NAN.match(want) and _NAN.match(got):
        return "float bits: NaN payload or sign changed"
    if {want, got} == {"-0.0", "0.0"}:
        return "float bits: sign of zero changed"
    if _NAN.match(want) or _NAN.match(got):
        return "float: NaN where a number is expected, or a number where NaN is"
    return "float value differs"


def _number(value: object) -> Fraction | None:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        return None


def _number_kind(want: Fraction, got: Fraction) -> str:
    """What happened to a number: zeroed, rounded, shifted by whole hours, or other."""
    if got == 0:
        return "number read as zero"
    if got == -want:
        return "number's sign flipped"
    if abs(want - got) <= abs(want) * RELATIVE_ROUNDING:
        return "number rounded (precision loss)"
    if _whole_hours(abs(want - got)):
        return "time shifted by whole hours (timezone)"
    return "number differs"


def _whole_hours(delta: Fraction) -> bool:
    return any(delta % (SECONDS_PER_HOUR * 10**d) == 0
               and delta <= HOURS_PER_DAY * SECONDS_PER_HOUR * 10**d for d in UNIT_DIGITS)
